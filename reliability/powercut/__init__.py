"""Power cuts: a FUSE file system that keeps only what was made durable
(powerfs.py, model.py), its own tests (selftest.py), and filenote's writers
cut at every point (cuts.py). reliability/POWERCUT.md explains it."""
