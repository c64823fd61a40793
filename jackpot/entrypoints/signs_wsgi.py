"""gunicorn's entry for the sign process: `jackpot.entrypoints.signs_wsgi:app` (a gevent worker)."""

from jackpot.entrypoints.signs_app import create_signs_app

app = create_signs_app()
