import io

from spatialbench.records.messages import Response
from spatialbench.runs.progress import Progress


def test_progress_shows_rate_eta_failures_and_tokens() -> None:
    stream = io.StringIO()
    progress = Progress(4, stream=stream)
    progress.update("ok", Response(text="A", input_tokens=100, output_tokens=1))
    progress.update("failed", None)
    progress.update("ok", Response(text="B", input_tokens=50, output_tokens=2))
    progress.close()
    text = stream.getvalue()
    assert "3/4" in text and "item/s" in text and "<" in text  # count, throughput, elapsed<ETA
    assert "failed=1" in text and "tok_in=150" in text and "tok_out=3" in text
    assert progress.counts == {"ok": 2, "empty": 0, "failed": 1}
