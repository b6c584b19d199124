import io
import time

from spacy_nseen.corpus.progress import AnnotationProgress


def test_resumed_items_move_the_count_not_the_rate():
    stream = io.StringIO()
    progress = AnnotationProgress(total=12, stream=stream, every=0.0)
    progress.skip(8)
    progress.update(3, bad=1)
    assert (progress.n, progress.resumed, progress.done) == (12, 8, 3)
    line = stream.getvalue().strip().splitlines()[-1]
    assert line.startswith("annotate: 12/12 (100%) records")
    assert "\x1b" not in stream.getvalue() and "\r" not in stream.getvalue()  # a log gets plain lines
    # the rate counts this run's 3 texts, not the 8 resumed ones nor the bad record
    progress.start = time.monotonic() - 10.0
    assert 0.29 < progress.rate() <= 0.3


def test_disabled_progress_writes_nothing():
    stream = io.StringIO()
    with AnnotationProgress(total=None, enabled=False, stream=stream, every=0.0) as progress:
        progress.update(5)
    assert stream.getvalue() == ""
