import torch
from threadpoolctl import threadpool_info, threadpool_limits

from spacy_nseen.corpus.worker import limit_threads


def test_limit_threads_sets_torch_and_blas_pools():
    before = torch.get_num_threads()
    with threadpool_limits(limits=None):
        try:
            limit_threads(1)
            assert torch.get_num_threads() == 1
            assert all(pool["num_threads"] == 1 for pool in threadpool_info())
        finally:
            torch.set_num_threads(before)
