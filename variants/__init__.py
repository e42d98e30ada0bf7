"""Built-in rulesets (installed as ``rummykit.variants``): one YAML file per game."""
