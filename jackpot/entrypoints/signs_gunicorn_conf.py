"""gunicorn settings for `jackpot signs`: one gevent worker holding every sign's stream."""

from jackpot import logs
from jackpot.settings import Settings

settings = Settings.from_env()

bind = settings.signs_bind
workers = 1  # one reader of the store per process; add processes (or hosts) past ~2,000 signs
worker_class = "gevent"
worker_connections = settings.signs_max_connections + 64  # room to answer "full" with a 503
timeout = 30
graceful_timeout = 1  # streams never end by themselves: do not wait for them
keepalive = 5
errorlog = "-"
loglevel = settings.log_level
logconfig_dict = logs.config_dict(settings)
proc_name = "jackpot-signs"
control_socket_disable = True
