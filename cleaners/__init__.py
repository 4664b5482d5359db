"""cleaners."""
