"""The output tables' contract: pandera models (what values may be) and Arrow schemas (how they
are stored). Every table newsclean writes is validated against these before it is written."""
from newsclean.schemas.tables import ARROW_SCHEMAS, MODELS, Articles, Quarantine, Removed

__all__ = ["ARROW_SCHEMAS", "MODELS", "Articles", "Quarantine", "Removed"]
