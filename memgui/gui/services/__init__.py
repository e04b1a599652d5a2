"""The GUI's one door to the core. Every other GUI module gets core functions and values from here:
`Services` (injected into the window, so tests swap in fakes), `AuditServices` (the Audit tab's reads and
writes) and the pure `values`. `real_services()` wires the real core; a core module that fails to import is an
error, not a switched-off feature."""
from .ahead import AheadServices, ahead_services
from .audit import AuditServices, audit_services
from .bulk import BulkServices, bulk_services
from .supersede import SupersedeServices, supersede_services
from .window import Services, real_services
from .writes import WriteServices, write_services

__all__ = [
           "AheadServices",
           "AuditServices",
           "BulkServices",
           "Services",
           "SupersedeServices",
           "WriteServices",
           "ahead_services",
           "audit_services",
           "bulk_services",
           "real_services",
           "supersede_services",
           "write_services",
]
