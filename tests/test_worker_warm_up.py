"""Worker processes warm up once before their first batch (newsclean.cleaners.model.warm_up: the model
loaded and the gc frozen past it); the flow's own process keeps its gc settings."""
import gc
import multiprocessing


def _in_worker(_):
    import newsclean.flows.clean_corpus as fc

    fc._warm_worker()
    frozen = gc.get_freeze_count()
    fc._warm_worker()  # a second batch in the same worker does not freeze again
    return gc.get_threshold()[0], frozen, gc.get_freeze_count() == frozen


def test_a_worker_warms_up_once():
    from newsclean.cleaners.model import GC_YOUNG_THRESHOLD

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        threshold, frozen, once = pool.map(_in_worker, [0])[0]
    assert threshold >= GC_YOUNG_THRESHOLD and frozen > 0 and once


def test_the_flow_process_keeps_its_gc_settings():
    import newsclean.flows.clean_corpus as fc

    before = gc.get_threshold(), gc.get_freeze_count()
    fc._warm_worker()
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_a_run_hides_the_heap_it_started_with_from_its_collections(tmp_path, monkeypatch):
    """During a run, what was alive before it is frozen, so each of the run's full collections
    (_shed, after every phase and batch) walks only what the run allocated; afterwards nothing
    stays frozen, so a process running many flows (`newsclean serve`) collects everything again."""
    from prefect.task_runners import ThreadPoolTaskRunner

    import newsclean.flows.clean_corpus as fc
    from tests.conftest import SEEDS_RAW

    seen = []
    real_shed = fc._shed
    monkeypatch.setattr(fc, "_shed", lambda: (seen.append(gc.get_freeze_count()), real_shed()))
    before = gc.get_freeze_count()
    alive = len(gc.get_objects())
    fc.clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(1))(raw_dir=str(SEEDS_RAW), out_dir=str(tmp_path / "out"))
    assert len(seen) >= 5 and min(seen) >= before + alive // 2
    assert gc.get_freeze_count() == before
