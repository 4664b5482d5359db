"""`newsclean` with one Prefect API server shared by the flow and its process-pool workers.

    python bench/newsclean_shared_server.py run RAW_DIR OUT_DIR [options]

An experiment for the benchmarks, not the product: in ephemeral mode (no PREFECT_API_URL) every
ProcessPoolTaskRunner worker starts its own temporary API server (a uvicorn process of ~220 MB
and ~15 s of start-up), because the workers inherit only the settings that were set explicitly.
This launcher starts the temporary server once, puts its URL into the settings the workers
inherit (prefect.settings.temporary_settings), then runs the normal CLI. bench_end_to_end.py
--launcher shared-server measures the difference.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from newsclean.flows.env import configure

    configure()
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from newsclean.flows.cli import main as cli_main

    server = SubprocessASGIServer()
    server.start(timeout=120)
    try:
        with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
            cli_main()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
