#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

/// The item's picture, decoded off the main loop and shown beside the text.
extension GateWindow {
    // MARK: The item's picture

    /// The longest side a picture is shown at, in logical pixels. The largest picture (by its
    /// header) that is loaded at all is `PictureSize`'s, the browser page's too: a file
    /// claiming more is skipped. A picture is decoded on a worker thread (a 36-megapixel PNG
    /// takes 1.6 s here), so the window answers keys all the while.
    static let pictureSide = 240
    static let pictureMaxBytes = 64 << 20

    /// Shows the item's picture beside its text, or takes the last one away (`path` empty, or
    /// a picture that cannot be shown: the text stands alone then, as without one). Its room
    /// is kept from the start, at the size its header gives, so the text does not move when
    /// the picture arrives a moment later.
    func showPicture(_ path: String, description: String) {
        cancelPicture()
        guard !path.isEmpty, let (stream, width, height) = Self.openPicture(path) else {
            hidePicture()
            return
        }
        gtk_picture_set_paintable(OpaquePointer(picture), nil)
        gtk_widget_set_size_request(picture, width, height)
        let name = description.isEmpty ? "Picture" : "Picture: \(description)"
        gtk_picture_set_alternative_text(OpaquePointer(picture), name)
        miga_accessible_set_label(picture, name)
        gtk_widget_set_visible(picture, 1)
        // Beside a picture the text starts at its edge, not in the middle of what is left.
        gtk_widget_set_halign(itemBox, GTK_ALIGN_FILL)
        let cancellable = g_cancellable_new()!
        pictureLoad = (stream, cancellable)
        // gdk-pixbuf's own _async decodes on the main loop between reads (a 36-megapixel PNG
        // held keys up for 400 ms at a time here): a GTask's worker thread decodes instead.
        let size = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        size[0] = width
        size[1] = height
        let task = g_task_new(UnsafeMutableRawPointer(stream), cancellable, { source, result, context in
            GateWindow.from(context).pictureDecoded(source: UnsafeMutableRawPointer(source), result: result)
        }, context)
        g_task_set_task_data(task, size) { $0?.assumingMemoryBound(to: Int32.self).deallocate() }
        g_task_run_in_thread(task) { task, source, data, cancellable in
            let size = data!.assumingMemoryBound(to: Int32.self)
            let input = source!.assumingMemoryBound(to: GInputStream.self)
            var error: UnsafeMutablePointer<GError>?
            let pixbuf = gdk_pixbuf_new_from_stream_at_scale(input, size[0], size[1], 0, cancellable, &error)
            if let error { g_error_free(error) }
            g_task_return_pointer(task, pixbuf.map { UnsafeMutableRawPointer($0) }) { g_object_unref($0) }
        }
        g_object_unref(UnsafeMutableRawPointer(task))
    }

    /// The worker's picture: shown if it is still the item's (Read Next may have come since).
    func pictureDecoded(source: UnsafeMutableRawPointer?, result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let decoded = g_task_propagate_pointer(result, &error).map { OpaquePointer($0) }
        if let error { g_error_free(error) }
        guard let load = pictureLoad, source == UnsafeMutableRawPointer(load.stream) else {
            if let decoded { g_object_unref(UnsafeMutableRawPointer(decoded)) }
            return
        }
        pictureLoad = nil
        g_object_unref(UnsafeMutableRawPointer(load.stream))
        g_object_unref(UnsafeMutableRawPointer(load.cancellable))
        guard let decoded else {
            hidePicture()
            return
        }
        // A camera's photo says which way up it goes.
        var pixbuf = decoded
        if let turned = gdk_pixbuf_apply_embedded_orientation(decoded) {
            g_object_unref(UnsafeMutableRawPointer(decoded))
            pixbuf = turned
        }
        let texture = gdk_texture_new_for_pixbuf(pixbuf)
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        guard let texture else {
            hidePicture()
            return
        }
        gtk_picture_set_paintable(OpaquePointer(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        gtk_widget_set_size_request(picture, width, height)
    }

    func cancelPicture() {
        guard let load = pictureLoad else { return }
        pictureLoad = nil
        g_cancellable_cancel(load.cancellable)
        g_object_unref(UnsafeMutableRawPointer(load.stream))
        g_object_unref(UnsafeMutableRawPointer(load.cancellable))
    }

    func hidePicture() {
        cancelPicture()
        guard gtk_widget_get_visible(picture) != 0 else { return }
        gtk_picture_set_paintable(OpaquePointer(picture), nil)
        gtk_widget_set_visible(picture, 0)
        gtk_widget_set_halign(itemBox, GTK_ALIGN_CENTER)
    }

    /// The picture at `path`, opened to be read, and the size to show it at (scaled down to
    /// fit `pictureSide` square, never up); nil for anything that is not a picture of a sane
    /// size. The gate checked the path already; the window checks again on the file it
    /// actually opens (non-blocking, so a FIFO put there since cannot hang it), and reads that
    /// same open file through /proc from then on, never the path a second time.
    static func openPicture(_ path: String) -> (stream: UnsafeMutablePointer<GFileInputStream>, width: Int32, height: Int32)? {
        guard path.hasPrefix("/") else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              info.st_size > 0, info.st_size <= pictureMaxBytes else { return nil }
        let opened = "/proc/self/fd/\(fd)"
        // The header only: how big the picture says it is.
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(opened, &width, &height) != nil, width > 0, height > 0,
              PictureSize.allows(width: Int(width), height: Int(height)) else { return nil }
        let scale = min(1, Double(pictureSide) / Double(width), Double(pictureSide) / Double(height))
        let file = g_file_new_for_path(opened)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let stream = g_file_read(file, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        return (stream, max(1, Int32((Double(width) * scale).rounded())), max(1, Int32((Double(height) * scale).rounded())))
    }
}
