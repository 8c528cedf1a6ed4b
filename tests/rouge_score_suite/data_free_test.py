"""Not part of rouge-score: runs the bodies of rouge-score's ``BootstrapAggregatorTest`` tests
that do not use its large test files (``scoring_test.py``'s ``setUp`` reads
``target_large.txt`` / ``prediction_large.txt``, which the rouge-score sdist does not ship and
which are not vendored here). ``setUp`` seeds NumPy as the original does and reads the small
``target.txt`` / ``prediction.txt`` instead; the test methods are rouge-score's, unchanged.
"""

import numpy as np
import scoring_test
from rouge_score import test_util


class DataFreeBootstrapAggregatorTest(scoring_test.BootstrapAggregatorTest):
    def setUp(self):
        np.random.seed(scoring_test._RANDOM_SEED)
        with open(test_util.TARGETS_FILE) as f:
            self.targets = f.readlines()
        with open(test_util.PREDICTIONS_FILE) as f:
            self.predictions = f.readlines()

    # These compare with numbers computed on the large files: not run here.
    testConfidenceIntervalsAgainstRouge155 = None
    testConfidenceIntervalsAgainstRouge155WithStemming = None
    testConfidenceIntervalsAgainstRouge155WithStemmingMultiLine = None
