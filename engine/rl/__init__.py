"""The standard AI-training interfaces (docs/rl.md), behind the `rl` extra (`pip install 'c1k[rl]'`):

- `engine.rl.encoding`: a player's view (`engine.view.observe`) as a fixed-size vector of integers, and
  the numbering of the legal actions (pure Python: no extra needed);
- `engine.rl.pettingzoo_env.env(...)`: a PettingZoo AEC environment (needs PettingZoo and NumPy);
- `import engine.rl.openspiel`: registers the OpenSpiel game `python_c1k` (needs `open-spiel`).

Importing `engine` imports none of these (tests/test_import_hygiene.py)."""

__all__: list[str] = []
