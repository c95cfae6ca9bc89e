"""The result of :func:`audit`: findings per check, and a short printable report."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AuditResult:
    """What :func:`~sklearn_fair.audit` found; ``print`` it for a short report.

    Attributes
    ----------
    duplicates : DuplicateReport or None
        Exact duplicates and the outer splits that put them on both sides.
    permutation : PermutationReport or None
        The nested estimate on permuted labels against chance.
    prefit : list of PrefitStep or None
        Steps that were fitted when handed in.
    n_samples : int
        Samples in the data as given.
    n_prepared : int or None
        Samples after ``prepare``, when one was given.
    notes : list of str
        Limits of what was checked.
    """

    duplicates: object = None
    permutation: object = None
    prefit: object = None
    n_samples: int = 0
    n_prepared: object = None
    notes: list = field(default_factory=list)

    @property
    def resampled_before_split(self):
        """Whether ``prepare`` changed the number of samples (resampling before splitting)."""
        return self.n_prepared is not None and self.n_prepared != self.n_samples

    @property
    def flags(self):
        """One line per finding; empty when the audit found nothing."""
        found = []
        if self.duplicates is not None and self.duplicates.leaks:
            d = self.duplicates
            shown = ", ".join(str(g.tolist()) for g in d.straddling[:5])
            more = f" and {len(d.straddling) - 5} more" if len(d.straddling) > 5 else ""
            found.append(
                f"duplicates: {len(d.straddling)} group(s) of identical samples fall on both "
                f"sides of a split: {shown}{more}"
            )
        if self.permutation is not None and self.permutation.leaks:
            p = self.permutation
            found.append(
                f"permutation: on permuted labels the {p.scoring} is {p.permuted_mean:.3f} "
                f"[{p.ci_low:.3f}, {p.ci_high:.3f}] ({100 * p.confidence:g}% {p.ci_method}), "
                f"clearly above chance ({p.chance:.3f})"
            )
        for step in self.prefit or []:
            how = (
                "frozen: used as fitted in every resample"
                if step.frozen
                else "refitted after clone here, but leaks wherever used as fitted"
            )
            found.append(f"prefit: step '{step.name}' ({step.estimator}) was fitted ({how})")
        if self.resampled_before_split:
            found.append(
                f"resampling before splitting: prepare turned {self.n_samples} samples into "
                f"{self.n_prepared}; test folds no longer have the data's class balance"
            )
        return found

    @property
    def passed(self):
        """True when no check flagged anything."""
        return not self.flags

    def __bool__(self):
        return self.passed

    def __str__(self):
        lines = ["Leakage audit: " + ("no leak found" if self.passed else "LEAKS FOUND")]
        if self.duplicates is not None:
            d = self.duplicates
            lines.append(
                f"  duplicates  : {len(d.groups)} group(s) of identical samples, "
                f"{len(d.straddling)} across a split"
            )
        if self.permutation is not None:
            p = self.permutation
            real = "" if p.estimate is None else f"real labels {p.estimate:.3f}; "
            lines.append(
                f"  permutation : {p.scoring}: {real}permuted {p.permuted_mean:.3f} "
                f"[{p.ci_low:.3f}, {p.ci_high:.3f}] ({100 * p.confidence:g}% {p.ci_method}) over "
                f"{len(p.permuted_estimates)} permutations; chance {p.chance:.3f}"
            )
        if self.prefit is not None:
            names = ", ".join(s.name for s in self.prefit) or "none"
            lines.append(f"  prefit steps: {names}")
        for flag in self.flags:
            lines.append(f"  ! {flag}")
        for note in self.notes:
            lines.append(f"  note: {note}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<AuditResult passed={self.passed} flags={len(self.flags)}>"
