"""Pure game and meter rules: no flask, redis, rq or prometheus_client here."""
