import TOML
import XCTest

final class CommentTests: XCTestCase {
    func testComments() {
        let toml = """
            # This is a full-line comment
            key = "value"  # This is a comment at the end of a line
            another = "# This is not a comment"
            #no space
            ##### many hashes
            arr = [ # after the bracket
              1, # after an element
              # a whole line
              2 # before the comma
              , 3
            ] # after the array
            [tbl] # after a header
            [[aot]] # after an array header
            x = 1#tight
            # ünïcödé 日本 😀 and "quotes" and 'apostrophes' and [brackets] {braces} = signs
            #
            """
        assertParses(toml, [
            "key": "value", "another": "# This is not a comment", "arr": [1, 2, 3], "tbl": [:], "aot": [["x": 1]],
        ])
    }

    func testOnlyComments() {
        assertParses("# nothing here", [:])
        assertParses("#", [:])
        assertParses("# a\n# b\n", [:])
    }

    func testCommentsCannotHideSyntax() {
        assertFails("a = # no value", line: 1, column: 5, "expected a value")
        assertFails("[tbl # no close]", line: 1, column: 6, "expected `]`")
        assertFails("a = [1 # ]", line: 1, column: 11, "expected `,` or `]`")
        assertFails("a = { b = 1 # }", line: 1, column: 13, "comment in an inline table")
    }
}
