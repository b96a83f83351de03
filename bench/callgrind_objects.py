#!/usr/bin/env python3
"""Self instruction counts per ELF object from callgrind output files.

Usage: callgrind_objects.py OUT_A COUNT_A OUT_B COUNT_B
  OUT_A, OUT_B   callgrind.out files of the same program run with COUNT_A and
                 COUNT_B (> COUNT_A) repetitions of the measured operation
Prints, per object, (Ir(B) - Ir(A)) / (COUNT_B - COUNT_A): the instructions
one repetition executes in that object's own code (self cost: a call into
another object counts there), and the total, as lines
  object=NAME per_op=IR
sorted by cost. Start-up, image loading and exit cancel out in the
difference.

The format is valgrind's callgrind format (docs: "Callgrind Format
Specification"): `ob=` names the object of the cost lines that follow, with
`(id)` compression; a `calls=` line is followed by one line of the call's
inclusive cost, which is not self cost and is skipped.
"""
import os
import re
import sys
from collections import defaultdict

NAME = re.compile(r'^\((\d+)\)(?: (.*))?$')


def self_cost_by_object(path):
    names = {}
    cost = defaultdict(int)
    current = '???'
    n_positions = 1
    skip_next = False
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in '+-*':
                if skip_next:
                    skip_next = False
                    continue
                fields = line.split()
                values = fields[n_positions:]
                if values:
                    cost[current] += int(values[0])
                continue
            if line.startswith('calls='):
                skip_next = True
                continue
            if line.startswith('positions:'):
                n_positions = len(line.split()[1:])
                continue
            if line.startswith('ob='):
                value = line[3:]
                m = NAME.match(value)
                if m:
                    if m.group(2) is not None:
                        names[m.group(1)] = m.group(2)
                    current = names.get(m.group(1), '???')
                else:
                    current = value
                continue
            if line.startswith('cob='):
                # Defines a name (used later by ob=(id)) without changing
                # the current object.
                m = NAME.match(line[4:])
                if m and m.group(2) is not None:
                    names[m.group(1)] = m.group(2)
    return cost


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    a, na, b, nb = argv[1], int(argv[2]), argv[3], int(argv[4])
    if nb <= na:
        sys.stderr.write('callgrind_objects.py: COUNT_B must exceed COUNT_A\n')
        return 2
    ca, cb = self_cost_by_object(a), self_cost_by_object(b)
    per = {}
    for obj in set(ca) | set(cb):
        per[os.path.basename(obj)] = per.get(os.path.basename(obj), 0) + (cb.get(obj, 0) - ca.get(obj, 0))
    ops = nb - na
    total = sum(per.values())
    for obj, v in sorted(per.items(), key=lambda kv: -kv[1]):
        if abs(v) / ops >= 1:
            print(f'object={obj} per_op={v / ops:.0f}')
    print(f'object=TOTAL per_op={total / ops:.0f}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
