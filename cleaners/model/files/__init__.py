"""Packaged line-model files (LightGBM text format + model.json); data only, see newsclean.cleaners.model."""
