import Reports

extension Calibration.Outcome {
  /// What `calibrate` prints: each fit (or why not), then the goodness of fit and its verdict.
  public var lines: [String] {
    var lines = [
      "fitted on \(fittedPhones) phone\(fittedPhones == 1 ? "" : "s"); checked on \(checkedPhones) against a "
        + "simulation of \(simulatedPhones)"
    ]
    lines += skipped + deliveryNotes
    let prefix = "user.app_opens.profile["
    let profile = fits.compactMap { fit in fit.estimate.map { (fit: fit, share: $0) } }.filter {
      $0.fit.key.hasPrefix(prefix)
    }
    if let peak = profile.max(by: { $0.share < $1.share }), let method = peak.fit.method.split(separator: ";").last {
      lines.append(
        "  user.app_opens.profile: busiest hour \(peak.fit.key.dropFirst(prefix.count).prefix(2)):00 "
          + "(\(FitText.number(peak.share * 100, digits: 3))% of opens; fit.csv has every hour);\(method)")
    }
    for fit in fits where !profile.contains(where: { $0.fit.key == fit.key }) {
      if let refusal = fit.refusal {
        lines.append("  \(fit.key): not fitted: \(refusal)")
      } else if fit.estimate == nil {
        lines.append("  \(fit.key): set: \(fit.method)")
      } else {
        lines.append("  \(Calibration.summary(fit))")
      }
    }
    lines.append("goodness of fit (two-sample Kolmogorov-Smirnov, logs against a simulation of fitted.yaml):")
    lines += GoodnessOfFit.lines(checks)
    if checks.contains(where: \.failed) {
      // calibrate's job is the fit, which it wrote: its exit says whether it could, not how well it fits.
      lines.append(
        "  (calibrate exits 0 with the fit written; the gate is `widgetsim check DIR/fitted.yaml --observed LOG...`, "
          + "which exits 1 on this verdict)")
    }
    return lines
  }
}

extension GoodnessOfFit {
  /// A line per distribution (distance, floor, p, sizes; FAILS when it fails), then the verdict: what
  /// `calibrate` and `check --observed` print.
  public static func lines(_ checks: [Check]) -> [String] {
    checks.map { check in
      guard let test = check.test else {
        return "  \(check.measure.name): too few values (\(check.observed.count) logged, \(check.simulated.count) "
          + "simulated)"
      }
      return
        "  \(check.measure.name): distance \(FitText.fixed(test.distance, 3)) (floor \(FitText.number(check.floor))), "
        + "p \(FitText.number(test.p, digits: 3)), n \(test.countA)/\(test.countB)\(check.failed ? ": FAILS" : "")"
    } + [verdict(checks)]
  }

  /// One line: whether the scenario explains the logs, naming the worst-fitting distribution.
  public static func verdict(_ checks: [Check]) -> String {
    guard let worst = worst(checks), let test = worst.test else {
      return "verdict: nothing to compare (too few values on either side)"
    }
    let failed = checks.filter(\.failed).count
    let what =
      "\(worst.measure.name) (distance \(FitText.fixed(test.distance, 3)), floor \(FitText.number(worst.floor)))"
    return failed > 0
      ? "verdict: the scenario does not explain the logs: \(failed == 1 ? "1 distribution differs" : "\(failed) distributions differ"); worst \(what)"
      : "verdict: the scenario explains the logs; the worst fit is \(what)"
  }
}
