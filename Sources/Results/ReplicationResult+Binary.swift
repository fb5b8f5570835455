import SimulationEngine

/// The exact result in binary (shard files): its shape, then every accumulator in ``ReplicationResult/fields``
/// order. Per-device records and traces are not included (a fleet keeps none).
extension ReplicationResult {
  public func encode(to writer: inout BinaryWriter) {
    precondition(openedDays == days, "encoded a result still being written")
    for value in [replication, days, instanceCount, pushTargetCount] { value.encode(to: &writer) }
    for field in ReplicationResult.fields { field.encode(self, &writer) }
  }

  /// Reads every accumulator in ``ReplicationResult/fields`` order into this empty result of the right shape.
  package mutating func decodeFields(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    for field in ReplicationResult.fields { try field.decode(&self, &reader) }
  }
}
