// Second translation unit of reg_static_constexpr.cpp: a `static constexpr`
// declare-target table with the same name as the first unit's, other values.
#pragma omp declare target
static constexpr int Table[4] = {10, 20, 30, 40};
#pragma omp end declare target

int tuBSum(void) {
  int Sum = 0;
#pragma omp target map(tofrom : Sum)
  for (int I = 0; I < 4; ++I) Sum += Table[I];
  return Sum;
}

int tuBSumThroughPointer(void) {
  const int *P = Table;
  int Sum = 0;
#pragma omp target map(tofrom : Sum) map(to : P[0 : 4])
  for (int I = 0; I < 4; ++I) Sum += P[I] * 10;
  return Sum;
}
