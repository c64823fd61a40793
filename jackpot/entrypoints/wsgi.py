"""The only import-time app: gunicorn loads `jackpot.entrypoints.wsgi:app`."""

from jackpot.entrypoints.app import create_app

app = create_app()
