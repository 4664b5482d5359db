"""Streaming a table batch by batch holds one batch, not the table (newsclean.cleaners.store.iter_batches)."""
import random

import pyarrow as pa
import pyarrow.parquet as pq

from newsclean.cleaners.store import iter_batches


def test_iter_batches_memory_does_not_grow_with_the_table(tmp_path):
    path = tmp_path / "removed.parquet"
    rows = 4_000
    rng = random.Random(7)
    with pq.ParquetWriter(path, pa.schema([("doc_id", pa.string()), ("text", pa.string())])) as writer:
        for g in range(100):  # 100 row groups of text that does not compress: ~40 MB on disk
            writer.write_table(pa.table({"doc_id": [f"d{g}-{i}" for i in range(rows)],
                                         "text": [rng.randbytes(50).hex() for i in range(rows)]}))
    start = pa.total_allocated_bytes()
    peak = 0
    n = 0
    for batch in iter_batches(path, ["doc_id", "text"], rows=5_000):
        n += batch.num_rows
        del batch
        peak = max(peak, pa.total_allocated_bytes() - start)
    assert n == 100 * rows
    # one row group decoded at a time: a few MB, whatever the table's size
    assert peak < 20 * 2**20, f"arrow held {peak / 2**20:.0f} MB while streaming"
