/// Calls `body` with two C arrays for a C bridge that takes a list of byte buffers (certificates,
/// CRLs) as `const uint8_t *const *` and `const size_t *`: the base address and the length of each of
/// `buffers`, in order. Both arrays, and the buffers they point to, are valid only during the call.
/// An empty buffer's address may be nil, as an empty array's is.
///
/// Every back end that wraps a C verifier needs this (`Backends/NSS`, `Backends/Botan`, ...): the
/// arrays are built with nested `withUnsafeBufferPointer` calls, so nothing is copied.
public func withCBufferArrays<R>(
    _ buffers: [[UInt8]],
    _ body: (_ pointers: UnsafePointer<UnsafePointer<UInt8>?>?, _ lengths: UnsafePointer<Int>?) throws -> R
) rethrows -> R {
    var pointers: [UnsafePointer<UInt8>?] = []
    pointers.reserveCapacity(buffers.count)
    let lengths = buffers.map(\.count)
    func nest(_ index: Int) throws -> R {
        if index == buffers.count {
            return try pointers.withUnsafeBufferPointer { p in try lengths.withUnsafeBufferPointer { l in try body(p.baseAddress, l.baseAddress) } }
        }
        return try buffers[index].withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress)
            return try nest(index + 1)
        }
    }
    return try nest(0)
}
