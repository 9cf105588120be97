"""Block Kit views, pure: models in, messages, modals and Home tabs out. No I/O, no Slack."""
