import CAdw
import MigaCore

/// The last seven days as bars, exits beside opens per day, drawn with cairo. A screen reader
/// is told it is a picture and hears every number in its description.
final class StatsChart {
    let widget: Widget
    private let days: [StatsReport.DayRow]

    init(days: [StatsReport.DayRow]) {
        self.days = days
        widget = miga_drawing_area_new_image()
        gtk_drawing_area_set_content_height(miga_drawing_area(widget), 180)
        gtk_widget_set_hexpand(widget, 1)
        miga_accessible_set_label(widget, "Exits and opens, the last seven days")
        miga_accessible_set_description(widget, Self.describe(days))
        let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
            guard let cairo, let data else { return }
            Unmanaged<StatsChart>.fromOpaque(data).takeUnretainedValue().draw(cairo, width: Double(width), height: Double(height))
        }
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
            if let data { Unmanaged<StatsChart>.fromOpaque(data).release() }
        }
        gtk_drawing_area_set_draw_func(miga_drawing_area(widget), draw, Unmanaged.passRetained(self).toOpaque(), release)
    }

    /// "Mon 5: 2 exits, 1 open, 4.5 min; Tue 6: …", the numbers the bars show.
    static func describe(_ days: [StatsReport.DayRow]) -> String {
        days.map { day in
            "\(weekday(day.date)) \(day.date): \(day.exits) exit\(day.exits == 1 ? "" : "s"), \(day.opens) open\(day.opens == 1 ? "" : "s"), "
                + AppOverview.minutesText(seconds: day.focusSeconds) + " min"
        }.joined(separator: "; ")
    }

    static func weekday(_ day: CivilDay) -> String {
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday]
    }

    static let exitColour = (0.18, 0.62, 0.34)
    static let openColour = (0.55, 0.55, 0.6)

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        let labelHeight = 22.0
        let top = max(1, days.map { max($0.exits, $0.opens) }.max() ?? 1)
        let slot = width / Double(max(1, days.count))
        let bar = min(22, slot / 3)
        let scale = (height - labelHeight - 16) / Double(top)
        for (index, day) in days.enumerated() {
            let x = Double(index) * slot + slot / 2
            for (offset, count, colour) in [(-bar - 1, day.exits, Self.exitColour), (1, day.opens, Self.openColour)] {
                cairo_set_source_rgb(cairo, colour.0, colour.1, colour.2)
                let barHeight = max(count > 0 ? 2 : 0, Double(count) * scale)
                cairo_rectangle(cairo, x + offset, height - labelHeight - barHeight, bar, barHeight)
                cairo_fill(cairo)
            }
            cairo_set_source_rgb(cairo, 0.5, 0.5, 0.5)
            cairo_set_font_size(cairo, 12)
            let text = Self.weekday(day.date)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cairo, text, &extents)
            cairo_move_to(cairo, x - extents.width / 2, height - 6)
            cairo_show_text(cairo, text)
        }
    }
}
