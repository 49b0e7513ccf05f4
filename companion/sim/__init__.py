"""The digital twin: a physical table scene rendered as the camera would see it (tests, demo,
benchmarks). Nothing but tests, the demo source and benchmarks imports this package."""
