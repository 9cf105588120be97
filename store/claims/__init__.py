"""Claims a summary, a verdict or a reviewer's note makes about answers never given
(issue 37): sentences, the questions each speaks of, and whether it credits the
candidate. Pure: no I/O, no network, no model."""
