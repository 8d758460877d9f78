import FoundationEssentials

/// `uninstall --purge` and this machine's journal in the sync folder (DESIGN "Uninstall gives
/// back what the person has now"): it is this machine's recorded events too, so the purge
/// names it and removes it with the rest. Left there, it would come back as "another
/// machine's" history the moment `sync_folder` is set again (the purge takes the machine's
/// id with the state folder). The other machines' journals are theirs and stay.
extension Installer {
    /// This machine's journal where the config's `sync_folder` points, when there is one: read
    /// from the file as it is (no sync_config reconciling, which would write), and with the id
    /// already made (reading must not make one).
    func ownSyncJournal() -> SyncJournal? {
        let paths = layout.paths
        guard AtomicFile.exists(paths.stateDirectory + "/" + SyncJournal.deviceFileName),
              let config = try? ConfigLoader().load(path: paths.configFile).config, !config.syncFolder.isEmpty,
              let journal = try? SyncJournal.named(config.syncFolder, paths: paths, environment: context.environment,
                                                  files: context.files) else { return nil }
        return FileStatus.at(journal.ownFolder, followingLinks: false)?.isDirectory == true ? journal : nil
    }

    /// The purge list's line for it.
    func ownJournalPurgeLine(_ journal: SyncJournal) -> String {
        let files = journal.ownFiles().count
        return "this machine's journal in the sync folder, \(layout.display(journal.ownFolder)) (\(files) file\(files == 1 ? "" : "s"); "
            + "the other machines' journals there stay)"
    }

    /// Removes it, through the store that writes it (`EventStore.removeOwnJournal`), before the
    /// state folder with the machine's id goes.
    func purgeOwnSyncJournal() {
        guard let journal = ownSyncJournal() else { return }
        let paths = layout.paths
        let files = context.files, processes = context.processes
        guard let store = (try? EventStore.openExisting(paths: paths, files: files, processes: processes))
                ?? (try? EventStore(paths: paths, files: files, processes: processes)) else {
            say("miga: \(layout.display(journal.ownFolder)) could not be removed (miga's database cannot be opened); delete it by hand")
            return
        }
        store.journal = journal
        let removed = store.removeOwnJournal()
        changes.append("removed this machine's \(removed) journal file\(removed == 1 ? "" : "s") from \(layout.display(journal.folder)); "
                       + "the other machines' journals stay")
    }
}
