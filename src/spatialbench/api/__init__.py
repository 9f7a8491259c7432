"""The library's top-level entry points (``spatialbench.run``, ``arun``, ``score``, ``open_run``, ...).

The only layer that turns coroutines into results (:func:`~spatialbench.api.sync.run_sync`); the command
line is a shell over it.
"""
