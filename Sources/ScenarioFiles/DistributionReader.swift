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
    var parameters = FamilyParameters(reader: reader, value: value, quantity: quantity)
    let distribution = try parameters.distribution(family, at: familyValue)
    try parameters.reader.finish()
    return distribution
  }

  /// Builds the distribution, turning a parameter error into a scenario error at that parameter's node.
  fileprivate static func make(
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

/// The parameters of one `{dist: NAME, ...}` mapping as a family reads them: each key read is remembered, so
/// that a parameter the distribution rejects is reported at its own node rather than at the whole mapping.
private struct FamilyParameters {
  var reader: MappingReader
  /// The whole mapping, where an error about no single parameter is reported.
  let value: YAMLValue
  let quantity: Quantity
  /// The parameters read so far, by key.
  private var parameters: [String: YAMLValue] = [:]

  init(reader: MappingReader, value: YAMLValue, quantity: Quantity) {
    self.reader = reader
    self.value = value
    self.quantity = quantity
  }

  /// How messages name a value of the quantity ("a duration", "a size"...).
  var unit: String {
    switch quantity {
    case .duration: "a duration"
    case .size: "a size"
    case .plain: "a number"
    case .power: "a power"
    case .energy: "an energy"
    }
  }

  /// The optional parameter `key`, remembered when present.
  mutating func take(_ key: String) -> YAMLValue? {
    let found = reader.optional(key)
    if let found { parameters[key] = found }
    return found
  }

  /// The required parameter `key`; its absence is an error naming `expectation`.
  mutating func need(_ key: String, _ expectation: String) throws(ScenarioError) -> YAMLValue {
    let found = try reader.required(key, expectation)
    parameters[key] = found
    return found
  }

  /// The required parameter `key` in the quantity's units (a location or scale, not a shape).
  mutating func needQuantity(_ key: String) throws(ScenarioError) -> Double {
    try quantity.read(try need(key, unit))
  }

  /// The optional parameter `key` in the quantity's units.
  mutating func takeQuantity(_ key: String) throws(ScenarioError) -> Double? {
    try take(key).map { v throws(ScenarioError) in try quantity.read(v) }
  }

  /// Builds the distribution from the parameters read so far (see ``DistributionReader/make(_:parameters:_:)``).
  func make(_ build: () throws(DistributionError) -> Distribution) throws(ScenarioError) -> Distribution {
    try DistributionReader.make(value, parameters: parameters, build)
  }

  /// The distribution of family `family` (written at `familyValue`), its parameters read in the order each
  /// family lists them, so the first missing or wrong one is the one reported.
  mutating func distribution(_ family: String, at familyValue: YAMLValue) throws(ScenarioError) -> Distribution {
    switch family {
    case "constant":
      let constant = try needQuantity("value")
      return try make { () throws(DistributionError) in try .constant(constant) }
    case "uniform":
      let low = try needQuantity("low")
      let high = try needQuantity("high")
      return try make { () throws(DistributionError) in try .uniform(low: low, high: high) }
    case "exponential":
      let mean = try needQuantity("mean")
      return try make { () throws(DistributionError) in try .exponential(mean: mean) }
    case "normal": return try normal()
    case "lognormal": return try lognormal()
    case "gamma":
      let shape = try need("shape", "a number > 0").number()
      let scale = try needQuantity("scale")
      return try make { () throws(DistributionError) in try .gamma(shape: shape, scale: scale) }
    case "weibull":
      let scale = try needQuantity("scale")
      let shape = try need("shape", "a number > 0").number()
      return try make { () throws(DistributionError) in try .weibull(scale: scale, shape: shape) }
    case "pareto":
      let shape = try need("shape", "a number > 0").number()
      let scale = try needQuantity("scale")
      return try make { () throws(DistributionError) in try .pareto(shape: shape, scale: scale) }
    case "beta", "bernoulli": return try unitInterval(family, at: familyValue)
    case "poisson":
      let mean = try needQuantity("mean")
      return try make { () throws(DistributionError) in try .poisson(mean: mean) }
    case "empirical": return try empirical()
    default:
      let families = DistributionReader.families
      throw familyValue.error(
        "unknown distribution \(familyValue.shown)\(DidYouMean.hint(for: family, among: families)); "
          + "expected one of \(families.joined(separator: ", "))")
    }
  }

  /// `normal`: mean and sd, optionally truncated to [lower, upper].
  private mutating func normal() throws(ScenarioError) -> Distribution {
    let mean = try needQuantity("mean")
    let sd = try needQuantity("sd")
    let lower = try takeQuantity("lower")
    let upper = try takeQuantity("upper")
    return try make { () throws(DistributionError) in try .normal(mean: mean, sd: sd, lower: lower, upper: upper) }
  }

  /// `lognormal`: sigma, and the median in the quantity's units or mu (the log of the median), not both.
  private mutating func lognormal() throws(ScenarioError) -> Distribution {
    let sigma = try need("sigma", "a number > 0").number()
    if let median = take("median") {
      if let mu = take("mu") { throw mu.error("give either median or mu, not both") }
      let medianValue = try quantity.read(median)
      return try make { () throws(DistributionError) in try .lognormal(median: medianValue, sigma: sigma) }
    }
    let mu = try need("mu", "median (\(unit)) or mu (the log of the median in base units)").number()
    return try make { () throws(DistributionError) in try .lognormal(mu: mu, sigma: sigma) }
  }

  /// `beta` or `bernoulli`: values in [0, 1], so only for plain numbers.
  private mutating func unitInterval(_ family: String, at familyValue: YAMLValue) throws(ScenarioError)
    -> Distribution
  {
    guard quantity == .plain else {
      throw familyValue.error("\(family) gives values in [0, 1]; it fits plain numbers, not \(unit)")
    }
    if family == "beta" {
      let a = try need("a", "a number > 0").number()
      let b = try need("b", "a number > 0").number()
      return try make { () throws(DistributionError) in try .beta(a: a, b: b) }
    }
    let p = try need("probability", "a number in [0, 1]").number()
    return try make { () throws(DistributionError) in try .bernoulli(probability: p) }
  }

  /// `empirical`: a list of values in the quantity's units, optionally weighted.
  private mutating func empirical() throws(ScenarioError) -> Distribution {
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
    return try make { () throws(DistributionError) in try .empirical(values: values, weights: weights) }
  }
}
