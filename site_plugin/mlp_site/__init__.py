"""The MkDocs plugin of the course site (``mlp-site``): its events in :mod:`mlp_site.plugin`, its steps in the other modules."""
