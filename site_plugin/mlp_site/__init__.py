"""The MkDocs plugin of the course site (``mlp-site``): its events in :mod:`mlp_site.plugin`, its steps in the other modules."""

from pathlib import Path

# The checkout this plugin belongs to (site_plugin/mlp_site/ is two folders below it), in one place.
# The plugin is installed editable from a checkout; it builds only that checkout's mkdocs.yml
# (plugin.py refuses another: a copied checkout whose environment still names the original folder).
ROOT = Path(__file__).resolve().parents[2]
