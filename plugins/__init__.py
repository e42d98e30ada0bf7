"""Built-in game plugins (installed as ``rummykit.plugins``)."""
