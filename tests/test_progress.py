import io

from spacy_nseen.progress import Progress


def test_a_log_gets_plain_periodic_lines_without_carriage_returns():
    log = io.StringIO()
    with Progress("encoding names", total=4, unit="names", stream=log, every=0.0) as bar:
        bar.update(1)
        bar.update(3, loss="0.1")
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) == 2
    assert lines[-1].startswith("  encoding names: 4/4 (100%) names,") and lines[-1].endswith("loss 0.1")


def test_nothing_is_written_for_a_step_shorter_than_the_interval():
    log = io.StringIO()
    with Progress("fitting", stream=log, every=3600.0) as bar:
        bar.update(10)
    assert log.getvalue() == "" and bar.n == 10


def test_the_interval_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("NSEEN_PROGRESS_EVERY", "2.5")
    assert Progress("x", stream=io.StringIO()).every == 2.5
    monkeypatch.setenv("NSEEN_PROGRESS_EVERY", "soon")
    assert Progress("x", stream=io.StringIO()).every == 15.0
