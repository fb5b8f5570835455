import SimulationEngine

/// What a random quantity measures, which decides the units its values and location parameters carry.
enum Quantity {
  /// Durations such as `0.25s`; sampled in seconds.
  case duration
  /// Sizes such as `30KB`; sampled in bytes.
  case size
  /// Plain numbers.
  case plain
  /// Powers such as `500mW`; sampled in watts.
  case power
  /// Energies such as `12.98Wh`; sampled in joules.
  case energy

  func read(_ value: YAMLValue) throws(ScenarioError) -> Double {
    switch self {
    case .duration: try value.seconds()
    case .size: try value.bytes()
    case .plain: try value.number()
    case .power: try value.watts(in: -1e6...1e6)
    case .energy: try value.joules()
    }
  }
}

/// Reads a distribution: a plain value (a constant) or `{dist: NAME, parameters...}`.
enum DistributionReader {
  static let families = [
    "constant", "uniform", "exponential", "normal", "lognormal", "gamma", "weibull", "pareto", "beta", "poisson",
    "bernoulli", "empirical",
  ]

  static func read(_ value: YAMLValue, quantity: Quantity) throws(ScenarioError) -> Distribution {
    guard case .mapping = value.node else {
      let constant = try quantity.read(value)
      return try make(value, parameters: [:]) { () throws(DistributionError) in try .constant(constant) }
    }
    var reader = try value.mapping()
    let familyValue = try reader.required("dist", "the distribution's name: \(families.joined(separator: ", "))")
    let family = try familyValue.string()
    var parameters: [String: YAMLValue] = [:]
    func take(_ key: String) -> YAMLValue? {
      let found = reader.optional(key)
      if let found { parameters[key] = found }
      return found
    }
    func need(_ key: String, _ expectation: String) throws(ScenarioError) -> YAMLValue {
      let found = try reader.required(key, expectation)
      parameters[key] = found
      return found
    }
    let unit: String
    switch quantity {
    case .duration: unit = "a duration"
    case .size: unit = "a size"
    case .plain: unit = "a number"
    case .power: unit = "a power"
    case .energy: unit = "an energy"
    }
    let distribution: Distribution
    switch family {
    case "constant":
      let constant = try quantity.read(try need("value", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in try .constant(constant) }
    case "uniform":
      let low = try quantity.read(try need("low", unit))
      let high = try quantity.read(try need("high", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .uniform(low: low, high: high)
      }
    case "exponential":
      let mean = try quantity.read(try need("mean", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .exponential(mean: mean)
      }
    case "normal":
      let mean = try quantity.read(try need("mean", unit))
      let sd = try quantity.read(try need("sd", unit))
      let lower = try take("lower").map { v throws(ScenarioError) in try quantity.read(v) }
      let upper = try take("upper").map { v throws(ScenarioError) in try quantity.read(v) }
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .normal(mean: mean, sd: sd, lower: lower, upper: upper)
      }
    case "lognormal":
      let sigma = try need("sigma", "a number > 0").number()
      if let median = take("median") {
        if let mu = take("mu") { throw mu.error("give either median or mu, not both") }
        let medianValue = try quantity.read(median)
        distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
          try .lognormal(median: medianValue, sigma: sigma)
        }
      } else {
        let mu = try need("mu", "median (\(unit)) or mu (the log of the median in base units)").number()
        distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
          try .lognormal(mu: mu, sigma: sigma)
        }
      }
    case "gamma":
      let shape = try need("shape", "a number > 0").number()
      let scale = try quantity.read(try need("scale", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .gamma(shape: shape, scale: scale)
      }
    case "weibull":
      let scale = try quantity.read(try need("scale", unit))
      let shape = try need("shape", "a number > 0").number()
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .weibull(scale: scale, shape: shape)
      }
    case "pareto":
      let shape = try need("shape", "a number > 0").number()
      let scale = try quantity.read(try need("scale", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .pareto(shape: shape, scale: scale)
      }
    case "beta", "bernoulli":
      guard quantity == .plain else {
        throw familyValue.error("\(family) gives values in [0, 1]; it fits plain numbers, not \(unit)")
      }
      if family == "beta" {
        let a = try need("a", "a number > 0").number()
        let b = try need("b", "a number > 0").number()
        distribution = try make(value, parameters: parameters) { () throws(DistributionError) in try .beta(a: a, b: b) }
      } else {
        let p = try need("probability", "a number in [0, 1]").number()
        distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
          try .bernoulli(probability: p)
        }
      }
    case "poisson":
      let mean = try quantity.read(try need("mean", unit))
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in try .poisson(mean: mean)
      }
    case "empirical":
      let valuesNode = try need("values", "a list of \(unit) values")
      var values: [Double] = []
      for (index, node) in try valuesNode.sequence().enumerated() {
        values.append(
          try quantity.read(YAMLValue(node: node, path: "\(valuesNode.path)[\(index)]", source: value.source)))
      }
      var weights: [Double]?
      if let weightsNode = take("weights") {
        var list: [Double] = []
        for (index, node) in try weightsNode.sequence().enumerated() {
          list.append(try YAMLValue(node: node, path: "\(weightsNode.path)[\(index)]", source: value.source).number())
        }
        weights = list
      }
      distribution = try make(value, parameters: parameters) { () throws(DistributionError) in
        try .empirical(values: values, weights: weights)
      }
    default:
      throw familyValue.error(
        "unknown distribution \(familyValue.shown)\(DidYouMean.hint(for: family, among: families)); "
          + "expected one of \(families.joined(separator: ", "))")
    }
    try reader.finish()
    return distribution
  }

  /// Builds the distribution, turning a parameter error into a scenario error at that parameter's node.
  private static func make(
    _ value: YAMLValue, parameters: [String: YAMLValue], _ build: () throws(DistributionError) -> Distribution
  ) throws(ScenarioError) -> Distribution {
    do {
      return try build()
    } catch {
      let key = String(error.parameter.prefix { $0 != "[" })
      let at = parameters[key] ?? value
      throw at.error("\(error.distribution) distribution: \(error.parameter) \(error.expectation)")
    }
  }
}
