/// `miga doctor`'s output with each finding on one line again: a finding longer than 80
/// columns is wrapped under its text (continuation lines indented past the mark, or past
/// `fix: `), so a test that looks for a sentence looks at it whole.
public enum DoctorText {
    public static func unwrapped(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let continues = line.hasPrefix(String(repeating: " ", count: 9)) && !line.hasPrefix("         fix: ")
            if continues, let last = lines.popLast() {
                lines.append(last + " " + line.drop { $0 == " " })
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }
}
