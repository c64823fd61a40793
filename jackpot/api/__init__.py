"""Flask blueprints: parse -> call one service function -> serialise."""
