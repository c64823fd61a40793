"""gunicorn's entry for the sign process: `jackpot.signs_wsgi:app` (a gevent worker)."""

from jackpot.signs_app import create_signs_app

app = create_signs_app()
