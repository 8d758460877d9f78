// Punycode (RFC 3492). Decoding validates "xn--" labels the way UTS #46 does and
// lets libidn2's output be inspected; encoding is needed only for labels too long
// for libidn2 (see IDNA.longLabelToASCII).

enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80
    /// Longer labels are refused in both directions: libidn2 cannot process them anyway, and
    /// the cap keeps decoding (which inserts into the output) linear in the input.
    static let maxDecodedLength = 1024

    /// Decodes the part after "xn--"; nil if it is not valid Punycode.
    static func decode<C: Collection>(_ input: C) -> [Unicode.Scalar]? where C.Element == UInt8 {
        let bytes = Array(input)
        var output: [Unicode.Scalar] = []
        var start = 0
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")) {
            for byte in bytes[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(Unicode.Scalar(byte))
            }
            start = delimiter + 1
        }
        guard output.count <= maxDecodedLength else { return nil }

        var n = initialN, i = 0, bias = initialBias
        var position = start
        while position < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < bytes.count, let digit = digitValue(bytes[position]) else { return nil }
                position += 1
                let (scaled, o1) = digit.multipliedReportingOverflow(by: w)
                let (sum, o2) = i.addingReportingOverflow(scaled)
                guard !o1, !o2, sum <= Int(Int32.max) else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextW, o3) = w.multipliedReportingOverflow(by: base - t)
                guard !o3, nextW <= Int(Int32.max) else { return nil }
                w = nextW
                k += base
            }
            let length = output.count + 1
            bias = adapt(delta: i - oldI, numPoints: length, firstTime: oldI == 0)
            n += i / length
            i %= length
            guard n <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(n)),
                  output.count < maxDecodedLength else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    /// Encodes a label (without the "xn--" prefix); nil for labels over the length cap.
    static func encode(_ input: [Unicode.Scalar]) -> [UInt8]? {
        guard input.count <= maxDecodedLength else { return nil }
        var output: [UInt8] = []
        for scalar in input where scalar.value < 0x80 {
            output.append(UInt8(truncatingIfNeeded: scalar.value))
        }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        // With at most maxDecodedLength code points below 0x110000, delta stays far
        // below Int.max, so plain arithmetic cannot overflow here.
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.lazy.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
            delta += (m - n) * (handled + 1)
            n = m
            for scalar in input {
                let c = Int(scalar.value)
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digitCharacter(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digitCharacter(q))
                    bias = adapt(delta: delta, numPoints: handled + 1, firstTime: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    private static func digitCharacter(_ digit: Int) -> UInt8 {
        digit < 26 ? UInt8(ascii: "a") + UInt8(digit) : UInt8(ascii: "0") + UInt8(digit - 26)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 26
        default: return nil
        }
    }

    private static func adapt(delta: Int, numPoints: Int, firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + ((base - tMin + 1) * delta) / (delta + skew)
    }
}
