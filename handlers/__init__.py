"""What answers Slack. handlers/listeners/ holds what Bolt calls (the middlewares and
listeners, each module with `register(app)`); the modules here register nothing: the
app's Deps, the words (words/, said by i18n.py), commands, views, sending. Importing
this package, or the words, loads no Bolt."""
