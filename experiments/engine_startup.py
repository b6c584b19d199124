"""Start-up time of a local cluster of 2 worker processes and 8 trivial tasks: `python -m experiments.engine_startup dask|ray`
(the measurement behind results/scale/engine_choice.md)."""
import os
import sys
import time


def getpid_task(_: int) -> int:
    return os.getpid()


def main(engine: str) -> None:
    t0 = time.perf_counter()
    if engine == "dask":
        from distributed import Client, LocalCluster

        t_import = time.perf_counter() - t0
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        pids = client.gather(client.map(getpid_task, range(8)))
        t_ready = time.perf_counter() - t0
        client.close()
        cluster.close()
    else:
        import ray

        t_import = time.perf_counter() - t0
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        task = ray.remote(getpid_task)
        pids = ray.get([task.remote(i) for i in range(8)])
        t_ready = time.perf_counter() - t0
        ray.shutdown()
    print(f"{engine}: import {t_import:.2f}s, cluster up + first 8 tasks {t_ready:.2f}s, "
          f"distinct worker pids {len(set(pids))}, load {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main(sys.argv[1])
