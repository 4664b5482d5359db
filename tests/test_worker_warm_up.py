"""Worker processes warm up once before their first batch (cleaners.model.warm_up: the model
loaded and the gc frozen past it); the flow's own process keeps its gc settings."""
import gc
import multiprocessing


def _in_worker(_):
    import flows.clean_corpus as fc

    fc._warm_worker()
    frozen = gc.get_freeze_count()
    fc._warm_worker()  # a second batch in the same worker does not freeze again
    return gc.get_threshold()[0], frozen, gc.get_freeze_count() == frozen


def test_a_worker_warms_up_once():
    from cleaners.model import GC_YOUNG_THRESHOLD

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        threshold, frozen, once = pool.map(_in_worker, [0])[0]
    assert threshold >= GC_YOUNG_THRESHOLD and frozen > 0 and once


def test_the_flow_process_keeps_its_gc_settings():
    import flows.clean_corpus as fc

    before = gc.get_threshold(), gc.get_freeze_count()
    fc._warm_worker()
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
