#!/usr/bin/env python3
"""Runs browser test modules (file paths or module names) and ends with one machine-readable
line for scripts/browser-tests.sh: `RESULT passed=N failed=N skipped=N`.
Skips are listed with their reasons (a skip means a browser is absent here)."""
import os, sys, unittest, warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, HERE)


def load(name):
    module = os.path.splitext(os.path.basename(name))[0]
    return unittest.defaultTestLoader.loadTestsFromName(module)


def main(argv):
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", ResourceWarning)
    names = argv or ["test_chromium.py", "test_firefox.py"]
    suite = unittest.TestSuite()
    load_errors = 0
    for name in names:
        try:
            suite.addTests(load(name))
        except Exception as error:  # noqa: BLE001 - an import error is a failure, not a skip
            print(f"cannot load {name}: {error!r}", file=sys.stderr)
            load_errors += 1
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stderr).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses) + load_errors
    skipped = len(result.skipped)
    passed = result.testsRun - len(result.failures) - len(result.errors) - len(result.unexpectedSuccesses) \
        - sum(1 for test, _ in result.skipped if isinstance(test, unittest.TestCase))
    passed = max(passed, 0)
    for test, reason in result.skipped:
        print(f"skipped {test}: {reason}", file=sys.stderr)
    print(f"RESULT passed={passed} failed={failed} skipped={skipped}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
