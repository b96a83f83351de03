# A stand-in that makes `import matplotlib` fail, put first on PYTHONPATH by
# the test profile-no-matplotlib (tests/tools/profile_cli_test.py).
raise ImportError("No module named 'matplotlib' (hidden by the test)")
