"""Slack's words, one module a surface; handlers/i18n.py says them."""
