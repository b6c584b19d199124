"""project.yml machinery: step timing, code deps, running a workflow with another var set, the demo check."""
