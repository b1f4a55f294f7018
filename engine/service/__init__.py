"""The search service: jobs with progress, cancel and budget, run in a thread or in a worker
process (`SearchService`), for hint, solve, optimal length, distance, dead ends, enumeration."""

from kaeru.engine.service.jobs import (
    CANCELLED,
    DONE,
    FAILED,
    GAVE_UP,
    OUTCOMES,
    UNSOLVABLE,
    Job,
    JobKind,
    JobRequest,
    JobResult,
)
from kaeru.engine.service.service import SearchService

__all__ = [
    "CANCELLED",
    "DONE",
    "FAILED",
    "GAVE_UP",
    "OUTCOMES",
    "UNSOLVABLE",
    "Job",
    "JobKind",
    "JobRequest",
    "JobResult",
    "SearchService",
]
