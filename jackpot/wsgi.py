"""The only import-time app: gunicorn loads `jackpot.wsgi:app`."""

from jackpot.app import create_app

app = create_app()
