"""Short configuration labels for tables, plot legends and selectors (pure: returns data).

A configuration expanded from a grid is labelled in full, `sat[encoding=extended,amo=pairwise,
solver=glucose3]`: exact, and far too wide for a column header or a legend. Its short label keeps
the backend and the values of the options that vary among that backend's configurations
(`sat extended/pairwise/glucose3`, or `sat glucose3` when only the solver varies). A label the
user chose (`glu4=sat[solver=glucose4]`) is kept as written, cut to `LONGEST` characters. The
full label and every option stay available (`ShortLabel.full`) for hover texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .results_log.records import ConfigurationEntry
from .results_log.resume import current_options

if TYPE_CHECKING:
    from .results_log.reader import Results

LONGEST = 24  # characters of a label the user chose, before it is cut with an ellipsis


@dataclass(frozen=True)
class ShortLabel:
    """How one configuration is shown: `text` in tables and legends, `backend` and `values`
    (the varying option values, in declaration order) for stacked headers, and `full` (the
    label, and the backend with every option when the label does not spell them) on hover."""

    label: str
    text: str
    backend: str
    values: tuple[str, ...]
    full: str


def canonical(backend: str, options: Mapping[str, Any]) -> str:
    """`backend[k=v,...]` as a configuration is written (`backend` alone without options)."""
    if not options:
        return backend
    return backend + "[" + ",".join(f"{key}={value}" for key, value in options.items()) + "]"


def _options(item: ConfigurationEntry) -> dict[str, str]:
    return {str(k): str(v) for k, v in current_options(item.backend, item.options).items()}


def _cut(text: str) -> str:
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "\u2026"


def short_labels(
    configurations: Iterable[ConfigurationEntry], labels: Sequence[str]
) -> dict[str, ShortLabel]:
    """The short label of every label in `labels`, from the configurations a results header
    describes (`label`, `backend`, `options`); a label no header describes is shown as written.
    Two configurations never share a short text: on a clash both keep their full labels."""
    described: dict[str, tuple[str, dict[str, str]]] = {}
    for item in configurations:
        described.setdefault(item.label, (item.backend, _options(item)))
    by_backend: dict[str, list[dict[str, str]]] = {}  # the configurations written out
    for label in labels:
        backend, options = described.get(label, (label, {}))
        if _spells(label, backend, options):
            by_backend.setdefault(backend, []).append(options)
    found = {label: _short(label, described.get(label), by_backend) for label in labels}
    texts = [short.text for short in found.values()]
    return {
        label: short
        if texts.count(short.text) == 1
        else ShortLabel(label, label, short.backend, (), short.full)
        for label, short in found.items()
    }


def short_texts(
    configurations: Iterable[ConfigurationEntry], labels: Sequence[str]
) -> dict[str, str]:
    """Each label's short text (`short_labels`), as a table shows it."""
    return {label: short.text for label, short in short_labels(configurations, labels).items()}


def labels_of(results: Results) -> dict[str, ShortLabel]:
    """The short label of every configuration of results logs read back, in their order."""
    labels = results.labels()
    described = [item for header in results.headers for item in header.configurations]
    return short_labels(described, labels)


def short_texts_of(results: Results) -> dict[str, str]:
    """Each configuration's short text (`labels_of`), as tables and plots show it."""
    return {label: short.text for label, short in labels_of(results).items()}


def described(item: ConfigurationEntry) -> str:
    """A configuration as a header describes it, said once: its label when the label spells
    it (`sat[solver=glucose3]`, its options in today's words and any order), else
    'label = backend[options]'."""
    options = _options(item)
    if _spells(item.label, item.backend, options):
        return item.label
    return f"{item.label} = {canonical(item.backend, options)}"


def _spells(label: str, backend: str, options: Mapping[str, str]) -> bool:
    """Whether `label` is the configuration written out (its options in any order)."""
    if label == backend:
        return True
    if not (label.startswith(backend + "[") and label.endswith("]")):
        return False
    written = dict(part.partition("=")[::2] for part in label[len(backend) + 1 : -1].split(","))
    spelled = {str(k): str(v) for k, v in current_options(backend, written).items()}
    return spelled == dict(options)


def _short(
    label: str,
    description: tuple[str, dict[str, str]] | None,
    by_backend: Mapping[str, Sequence[Mapping[str, str]]],
) -> ShortLabel:
    if description is None:
        return ShortLabel(label, _cut(label), label, (), label)
    backend, options = description
    spelled = canonical(backend, options)
    if not _spells(label, backend, options):  # a label the user chose: theirs, with options
        full = f"{label} = {spelled}"
        return ShortLabel(label, _cut(label), backend, (), full)
    siblings = by_backend.get(backend, [options])
    varying = [
        key
        for key in options
        if len(siblings) == 1 or len({sibling.get(key) for sibling in siblings}) > 1
    ]
    values = tuple(options[key] for key in varying)
    text = " ".join([backend, "/".join(values)]) if values else backend
    return ShortLabel(label, text, backend, values, spelled)


__all__ = [
    "LONGEST",
    "ShortLabel",
    "canonical",
    "described",
    "labels_of",
    "short_labels",
    "short_texts",
    "short_texts_of",
]
