// The IPv6 parser and serializer (RFC 5952-style compression, as the standard defines it).

enum IPv6 {
    /// Parses the text between "[" and "]"; nil means failure.
    static func parse(_ input: ArraySlice<Unicode.Scalar>) -> [UInt16]? {
        let chars = Array(input)
        let count = chars.count
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int? = nil
        var pointer = 0

        func at(_ i: Int) -> Unicode.Scalar? { i < count ? chars[i] : nil }

        if at(pointer) == ":" {
            guard at(pointer + 1) == ":" else { return nil }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }

        while let c = at(pointer) {
            guard pieceIndex != 8 else { return nil }
            if c == ":" {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }

            var value: UInt32 = 0
            var length = 0
            while length < 4, let h = at(pointer), let digit = h.hexDigitValue {
                value = value * 0x10 + UInt32(digit)
                pointer += 1
                length += 1
            }

            if at(pointer) == "." {
                // An embedded IPv4 address fills the last two pieces.
                guard length != 0, pieceIndex <= 6,
                      parseIPv4Pieces(chars, from: pointer - length, into: &address, pieceIndex: &pieceIndex) else { return nil }
                break
            } else if at(pointer) == ":" {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }

        if let compress = compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// The standard's IPv4-in-IPv6 steps: the rest of the input from `start`, four decimal
    /// numbers, into the two pieces from `pieceIndex`; false means failure.
    private static func parseIPv4Pieces(_ chars: [Unicode.Scalar], from start: Int, into address: inout [UInt16],
                                        pieceIndex: inout Int) -> Bool {
        var pointer = start
        func at(_ i: Int) -> Unicode.Scalar? { i < chars.count ? chars[i] : nil }
        var numbersSeen = 0
        while at(pointer) != nil {
            var ipv4Piece: UInt32? = nil
            if numbersSeen > 0 {
                guard at(pointer) == ".", numbersSeen < 4 else { return false }
                pointer += 1
            }
            guard let first = at(pointer), first.isASCIIDigit else { return false }
            while let d = at(pointer), d.isASCIIDigit {
                let number = d.value - 0x30
                if let piece = ipv4Piece {
                    guard piece != 0 else { return false }  // no leading zeros
                    ipv4Piece = piece * 10 + number
                } else {
                    ipv4Piece = number
                }
                guard let piece = ipv4Piece, piece <= 255 else { return false }
                pointer += 1
            }
            address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece ?? 0)
            numbersSeen += 1
            if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
        }
        return numbersSeen == 4
    }

    /// Serializes without brackets; the first longest run of two or more zero pieces becomes "::".
    static func serialize(_ address: [UInt16]) -> String {
        guard address.count == 8 else { return "" }
        var compress: Int? = nil
        var bestLength = 1
        var i = 0
        while i < 8 {
            if address[i] == 0 {
                var j = i
                while j < 8 && address[j] == 0 { j += 1 }
                if j - i > bestLength {
                    bestLength = j - i
                    compress = i
                }
                i = j
            } else {
                i += 1
            }
        }

        var output = ""
        var ignore0 = false
        for pieceIndex in 0..<8 {
            if ignore0 && address[pieceIndex] == 0 { continue }
            ignore0 = false
            if compress == pieceIndex {
                output += pieceIndex == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            output += String(address[pieceIndex], radix: 16)
            if pieceIndex != 7 { output += ":" }
        }
        return output
    }
}
