"""``rummykit serve``: play in the browser. A JSON API under ``/api`` and a page that uses it (the ``web`` extra).

:func:`rummykit.web.app.create_app` builds the ASGI application; :func:`rummykit.web.app.serve` runs it.
"""
