/// Calls `body` with two C arrays for a C bridge that takes a list of byte buffers (certificates,
/// CRLs) as `const uint8_t *const *` and `const size_t *`: the base address and the length of each of
/// `buffers`, in order. Both arrays, and the buffers they point to, are valid only during the call.
/// An empty buffer's address may be nil, as an empty array's is.
///
/// Every back end that wraps a C verifier needs this (`Backends/NSS`, `Backends/Botan`, ...). Up to
/// ``cBufferArraysNestedLimit`` buffers the arrays are built with nested `withUnsafeBufferPointer` calls, so
/// nothing is copied; a longer list (a hostile peer's 10,000 certificates) is copied once into one
/// allocation instead, so the stack never grows with the input.
public func withCBufferArrays<R>(
    _ buffers: [[UInt8]],
    _ body: (_ pointers: UnsafePointer<UnsafePointer<UInt8>?>?, _ lengths: UnsafePointer<Int>?) throws -> R
) rethrows -> R {
    let lengths = buffers.map(\.count)
    guard buffers.count <= cBufferArraysNestedLimit else {
        // One contiguous copy: each pointer into it, in order; no recursion.
        let joined = buffers.flatMap { $0 }
        return try joined.withUnsafeBufferPointer { all in
            var pointers: [UnsafePointer<UInt8>?] = []
            pointers.reserveCapacity(buffers.count)
            var offset = 0
            for length in lengths {
                pointers.append(length == 0 ? nil : all.baseAddress.map { $0 + offset })
                offset += length
            }
            return try pointers.withUnsafeBufferPointer { p in try lengths.withUnsafeBufferPointer { l in try body(p.baseAddress, l.baseAddress) } }
        }
    }
    var pointers: [UnsafePointer<UInt8>?] = []
    pointers.reserveCapacity(buffers.count)
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

/// The most buffers ``withCBufferArrays(_:_:)`` lends without copying (three stack frames each).
public let cBufferArraysNestedLimit = 64
