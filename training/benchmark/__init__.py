"""Speed and memory: linkers, the pipeline, corpus annotation at scale."""
