import Testing

@testable import FilenoteCore

/// The conflict copies sync engines write beside a note are known by their
/// names, each engine's form exactly (doc/SYNC.md), and never taken for
/// another note's. Each real name below says where it was found: a file of
/// the engine's own repository, a public repository that holds one, or a
/// run of the engine on this project's test machine.
@Suite struct ConflictCopyNameTests {
  typealias Copy = ConflictCopyName

  static func day(_ year: Int, _ month: Int, _ day: Int) -> Copy.Day {
    Copy.Day(year: year, month: month, day: day)
  }

  static func time(_ hour: Int, _ minute: Int, _ second: Int) -> Copy.TimeOfDay {
    Copy.TimeOfDay(hour: hour, minute: minute, second: second)
  }

  @Suite struct Syncthing {
    // Names Syncthing 1.19.2 (Debian's package) gave in reliability/sync.py,
    // and the notes they are copies of: the tag goes before the last
    // extension, at the end of a name without one, and before the whole name
    // of a dotfile (doc/SYNC.md, "How each engine names a conflict copy",
    // says where Syncthing writes it).
    static let namesSyncthingGave = [
      ("datafile.sync-conflict-20261201-202437-Y6OAA4V.dat", "datafile.dat", "Y6OAA4V", 202437),
      ("note.sync-conflict-20261201-202503-27Q6OQ5", "note", "27Q6OQ5", 202503),
      (".sync-conflict-20261201-202507-U5GJJJZ.note", ".note", "U5GJJJZ", 202507),
      (".note.sync-conflict-20261201-203037-MLQWHZQ.txt", ".note.txt", "MLQWHZQ", 203037),
    ]

    @Test(arguments: namesSyncthingGave)
    func eachNameSyncthingGaveIsACopyWithItsDeviceDayAndTime(
      name: String, note: String, device: String, clock: Int
    ) {
      let time = ConflictCopyNameTests.time(clock / 10000, clock / 100 % 100, clock % 100)
      #expect(
        Copy(name, copyOf: note)
          == Copy(engine: .syncthing, origin: device, day: day(2026, 12, 1), time: time))
    }

    @Test func aDotfilesTagIsNotAfterItsName() {
      #expect(Copy(".note.sync-conflict-20261201-202507-U5GJJJZ", copyOf: ".note") == nil)
    }

    // protocol.ShortID's String is empty for a device ID of zeros.
    @Test func anUnknownDeviceLeavesTheDeviceEmpty() {
      let copy = Copy("datafile.sync-conflict-20261201-202437-.dat", copyOf: "datafile.dat")
      #expect(copy?.engine == .syncthing)
      #expect(copy?.origin == nil)
    }

    @Test func anotherNotesCopiesAreNotThisNotes() {
      let copy = "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat"
      #expect(
        Copy("datafile2.sync-conflict-20261201-202437-Y6OAA4V.dat", copyOf: "datafile.dat") == nil)
      #expect(Copy(copy, copyOf: "datafile.txt") == nil)
      #expect(Copy(copy, copyOf: "datafile") == nil)
      #expect(Copy("note.sync-conflict-20261201-202503-27Q6OQ5.txt", copyOf: "note") == nil)
      #expect(
        Copy("datafile.dat.sync-conflict-20261201-202437-Y6OAA4V", copyOf: "datafile.dat") == nil)
    }

    @Test func aDeviceOrDateSyncthingCannotWriteIsNoCopy() {
      for name in [
        "datafile.sync-conflict-20261201-202437-y6oaa4v.dat",  // base32 is upper case
        "datafile.sync-conflict-20261201-202437-Y6OAA4.dat",  // six characters
        "datafile.sync-conflict-20261201-202437-Y6OAA48.dat",  // 8 is not base32
        "datafile.sync-conflict-20261301-202437-Y6OAA4V.dat",  // month 13
        "datafile.sync-conflict-20261201-242437-Y6OAA4V.dat",  // hour 24
        "datafile.sync-conflict-2026121-202437-Y6OAA4V.dat",
        "datafile.sync-conflict-20261201202437-Y6OAA4V.dat",
        "datafile.sync-conflict-20261201-202437Y6OAA4V.dat",
      ] {
        #expect(Copy(name, copyOf: "datafile.dat") == nil, "\(name)")
      }
    }

    @Test func namesAreComparedAsBytes() {
      #expect(Copy("café.sync-conflict-20261201-202437-Y6OAA4V.txt", copyOf: "café.txt") != nil)
      // "e" and a combining acute accent: another name to the kernel.
      #expect(
        Copy("cafe\u{301}.sync-conflict-20261201-202437-Y6OAA4V.txt", copyOf: "café.txt") == nil)
    }
  }

  @Suite struct Dropbox {
    // miguelmota/clean-dropbox-conflicted README.md.
    @Test func theTagNamesWhoseCopyItIsAndTheDay() {
      #expect(
        Copy("foo (Miguel Mota's conflicted copy 2014-06-17).txt", copyOf: "foo.txt")
          == Copy(engine: .dropbox, origin: "Miguel Mota", day: day(2014, 6, 17)))
    }

    // IntelliTect/PSToolbox Modules/IntelliTect.DropboxToGit/IntelliTect.DropboxToGit.psm1
    // maps this copy back to `.gitignore`.
    @Test func aDotfileGetsTheTagBeforeItsWholeName() {
      #expect(
        Copy(" (Mark Michaelis's conflicted copy 2016-12-20).gitignore", copyOf: ".gitignore")
          == Copy(engine: .dropbox, origin: "Mark Michaelis", day: day(2016, 12, 20)))
    }

    @Test func aComputerNameWithApostrophesAndDotsIsTheOrigin() {
      #expect(
        Copy("note (Ann's MacBook Pro.local's conflicted copy 2026-12-01)", copyOf: "note")?.origin
          == "Ann's MacBook Pro.local")
    }

    @Test func aFurtherCopyOfTheSameDayCarriesItsNumber() {
      #expect(
        Copy("datafile (Ann's conflicted copy 2026-12-01 (1)).dat", copyOf: "datafile.dat")
          == Copy(engine: .dropbox, origin: "Ann", day: day(2026, 12, 1), counter: 1))
    }

    // The German words as Fell/dcrt dcrt.php matches them; the Portuguese tag
    // as julio-saito-linx/renaming_files rename_files.js renames it away.
    @Test func theGermanAndPortugueseFormsPutTheirWordsBeforeTheName() {
      #expect(
        Copy(
          "datafile (In Konflikt stehende Kopie von laptop 2026-12-01).dat", copyOf: "datafile.dat")
          == Copy(engine: .dropbox, origin: "laptop", day: day(2026, 12, 1)))
      #expect(
        Copy(
          "datafile (in Konflikt stehende Kopie von laptop 2026-12-01).dat", copyOf: "datafile.dat")?
          .origin == "laptop")
      #expect(
        Copy("foto (Cópia em conflito de pc-saito 2014-08-14).jpg", copyOf: "foto.jpg")
          == Copy(engine: .dropbox, origin: "pc-saito", day: day(2014, 8, 14)))
    }

    @Test func aCopyOfANoteWithParenthesesInItsNameIsThatNotesOnly() {
      let name = "plan (draft) (Ann's conflicted copy 2026-12-01).txt"
      #expect(Copy(name, copyOf: "plan.txt") == nil)
      #expect(Copy(name, copyOf: "plan (draft).txt")?.origin == "Ann")
    }

    @Test func tagsDropboxDoesNotWriteAreNoCopy() {
      for name in [
        "datafile ('s conflicted copy 2026-12-01).dat",  // nobody
        "datafile (Ann conflicted copy 2026-12-01).dat",
        "datafile (Ann's conflicted copy 2026-13-01).dat",
        "datafile (Ann's conflicted copy 2026-12-01 (0)).dat",
        "datafile (Ann's conflicted copy 2026-12-01 ()).dat",
        "datafile (Ann's conflicted copy 2026-12-01.dat",
        "datafile(Ann's conflicted copy 2026-12-01).dat",
        "datafile (Konflikt stehende Kopie von laptop 2026-12-01).dat",
        "datafile (Ann's conflicted copy 2026-12-01).dat.dat",
      ] {
        #expect(Copy(name, copyOf: "datafile.dat") == nil, "\(name)")
      }
    }
  }

  @Suite struct Nextcloud {
    // The name Nextcloud's manual gives (doc/SYNC.md, "How each engine names
    // a conflict copy").
    @Test func theTagNamesTheDayAndTime() {
      #expect(
        Copy("mydata (conflicted copy 2018-04-10 093612).txt", copyOf: "mydata.txt")
          == Copy(engine: .nextcloud, day: day(2018, 4, 10), time: time(9, 36, 12)))
    }

    // ownCloud's clients before 2.5 (doc/SYNC.md, as above).
    @Test func olderClientsWroteConflictWithAnUnderscore() {
      #expect(
        Copy("message_conflict-20160101-153110.txt", copyOf: "message.txt")
          == Copy(engine: .nextcloud, day: day(2016, 1, 1), time: time(15, 31, 10)))
    }

    // When the server takes conflict files, the client puts the user's
    // display name first, spaces and all (doc/SYNC.md, as above).
    @Test func aUserNameComesBeforeTheDay() {
      #expect(
        Copy("mydata (conflicted copy Ann Smith 2018-04-10 093612).txt", copyOf: "mydata.txt")
          == Copy(
            engine: .nextcloud, origin: "Ann Smith", day: day(2018, 4, 10), time: time(9, 36, 12)))
    }

    // The same function: "take care of cases like foo/.hidden".
    @Test func aDotfileKeepsItsNameAndGetsTheTagAtItsEnd() {
      #expect(
        Copy(".note (conflicted copy 2018-04-10 093612)", copyOf: ".note")?.engine == .nextcloud)
      #expect(Copy(" (conflicted copy 2018-04-10 093612).note", copyOf: ".note") == nil)
      #expect(Copy(".note_conflict-20160101-153110", copyOf: ".note")?.engine == .nextcloud)
      #expect(
        Copy(".note (conflicted copy 2018-04-10 093612).txt", copyOf: ".note.txt")?.engine
          == .nextcloud)
    }

    @Test func aCopyOfACopyIsTheFirstCopysOnly() {
      let name =
        "mydata (conflicted copy 2018-04-10 093612) (conflicted copy 2018-04-11 101010).txt"
      #expect(Copy(name, copyOf: "mydata.txt") == nil)
      #expect(Copy(name, copyOf: "mydata (conflicted copy 2018-04-10 093612).txt") != nil)
    }

    @Test func tagsTheClientsDoNotWriteAreNoCopy() {
      for name in [
        "mydata (conflicted copy 2018-04-10 243612).txt",
        "mydata (conflicted copy 2018-04-10 09361).txt",
        "mydata (conflicted copy 2018-04-10).txt",
        "mydata (conflicted copy Ann (home) 2018-04-10 093612).txt",
        "mydata (conflicted copyAnn 2018-04-10 093612).txt",
        "mydata_conflict-20160101-1531.txt",
        "mydata_conflict-20160101-153110-x.txt",
      ] {
        #expect(Copy(name, copyOf: "mydata.txt") == nil, "\(name)")
      }
    }
  }

  @Suite struct OneDrive {
    // The Linux OneDrive client's names (doc/SYNC.md, "How each engine
    // names a conflict copy").
    @Test func theTagNamesTheHostAndANumberOfFourDigits() {
      #expect(
        Copy("file5-onedrive-client-dev-safeBackup-0001.data", copyOf: "file5.data")
          == Copy(engine: .oneDrive, origin: "onedrive-client-dev", counter: 1))
      #expect(
        Copy("file5-onedrive-client-dev-safeBackup-0002.data", copyOf: "file5.data")?.counter == 2)
      #expect(
        Copy("1-onedrive-client-dev-safeBackup-0001.txt", copyOf: "1.txt")?.origin
          == "onedrive-client-dev")
    }

    // The client finds no extension in a dotfile's name (doc/SYNC.md, as
    // above).
    @Test func aDotfileKeepsItsNameAndGetsTheTagAtItsEnd() {
      #expect(Copy(".note-laptop-safeBackup-0001", copyOf: ".note")?.origin == "laptop")
      #expect(Copy("-laptop-safeBackup-0001.note", copyOf: ".note") == nil)
    }

    @Test func namesTheClientNeverLeavesAreNoCopy() {
      for name in [
        // The staging file of a copy still being written (doc/SYNC.md).
        "file5-onedrive-client-dev-safeBackup-0001.data.partial",
        "file5-onedrive-client-dev-safeBackup-0000.data",
        "file5-onedrive-client-dev-safeBackup-1001.data",
        "file5-onedrive-client-dev-safeBackup-001.data",
        "file5-safeBackup-0001.data",
        "file5--safeBackup-0001.data",
        "file5-my laptop-safeBackup-0001.data",
        // The form of 2.5.2 and before, too like a name a person gives.
        "file5-onedrive-client-dev-1.data",
      ] {
        #expect(Copy(name, copyOf: "file5.data") == nil, "\(name)")
      }
    }

    @Test func aCopyThatALongerNoteExplainsIsThatNotes() {
      let name = "datafile-2-laptop-safeBackup-0001.dat"
      #expect(Copy(name, copyOf: "datafile.dat")?.origin == "2-laptop")
      #expect(Copy(name, copyOf: "datafile-2.dat")?.origin == "laptop")
      #expect(
        Copy.belongsToLongerNote(
          name, copyOf: "datafile.dat", among: ["datafile.dat", name, "datafile-2.dat"]))
      #expect(
        !Copy.belongsToLongerNote(name, copyOf: "datafile.dat", among: ["datafile.dat", name]))
    }
  }

  @Suite struct Unison {
    // Names Unison 2.52.1 (Debian's package) gave with -copyonconflict on
    // this project's test machine (doc/SYNC.md, "How each engine names a
    // conflict copy", has the forms of every version).
    @Test func theTagGoesBeforeTheLastExtensionWithTheDay() {
      #expect(
        Copy("datafile (conflict_on_2026-12-01).dat", copyOf: "datafile.dat")
          == Copy(engine: .unison, day: day(2026, 12, 1)))
      #expect(Copy("note (conflict_on_2026-12-01)", copyOf: "note")?.engine == .unison)
      #expect(Copy(".note (conflict_on_2026-12-01).txt", copyOf: ".note.txt")?.engine == .unison)
    }

    @Test func aDotfileGetsTheTagBeforeItsWholeName() {
      #expect(Copy(" (conflict_on_2026-12-01).note", copyOf: ".note")?.engine == .unison)
      #expect(Copy(".note (conflict_on_2026-12-01)", copyOf: ".note") == nil)
    }

    @Test func aFurtherCopyOfTheSameDayCarriesItsNumber() {
      #expect(
        Copy("datafile (conflict #1_on_2026-12-01).dat", copyOf: "datafile.dat")
          == Copy(engine: .unison, day: day(2026, 12, 1), counter: 1))
      #expect(Copy("note (conflict #12_on_2026-12-01)", copyOf: "note")?.counter == 12)
    }

    // Since Unison 2.51.4: the copy of a note the other side deleted.
    @Test func aCopyOfADeletedNoteSaysSoAndIsACopyAllTheSame() {
      #expect(
        Copy("datafile (conflict_on_2026-12-01_was_deleted).dat", copyOf: "datafile.dat")
          == Copy(engine: .unison, day: day(2026, 12, 1)))
    }

    // Unison before 2.51.3 and before 2.51.0 (doc/SYNC.md, as above).
    @Test func theOlderFormsWithSpacesAndWithCopyAreCopiesToo() {
      #expect(
        Copy("datafile (conflict on 2019-01-31).dat", copyOf: "datafile.dat")
          == Copy(engine: .unison, day: day(2019, 1, 31)))
      #expect(
        Copy("datafile (conflict #2 on 2019-01-31).dat", copyOf: "datafile.dat")?.counter == 2)
      #expect(
        Copy("datafile (copy: conflict on 2015-06-01).dat", copyOf: "datafile.dat")?.engine
          == .unison)
    }

    @Test func tagsUnisonDoesNotWriteAreNoCopy() {
      for name in [
        "datafile (conflict #0_on_2026-12-01).dat",
        "datafile (conflict #01_on_2026-12-01).dat",
        "datafile (conflict #_on_2026-12-01).dat",
        "datafile (copy: conflict_on_2026-12-01).dat",
        "datafile (conflict on 2026-12-01_was_deleted).dat",
        "datafile (conflict_on_2026-12-01)_was_deleted.dat",
        "datafile (conflict_on_2026-12-01).txt",
        "datafile (conflict_on_26-12-01).dat",
      ] {
        #expect(Copy(name, copyOf: "datafile.dat") == nil, "\(name)")
      }
    }
  }

  @Suite struct RcloneBisync {
    // rclone bisync's names since 1.66 (doc/SYNC.md, "How each engine names
    // a conflict copy").
    @Test func theSuffixFollowsTheWholeNameWithANumber() {
      #expect(
        Copy("file.txt.conflict1", copyOf: "file.txt") == Copy(engine: .rcloneBisync, counter: 1))
      #expect(Copy("file5.txt.conflict2", copyOf: "file5.txt")?.counter == 2)
      #expect(Copy(".note.conflict3", copyOf: ".note")?.counter == 3)
    }

    // Names rclone 1.60.1 (Debian's package) gave on this project's test
    // machine, the default before 1.66.
    @Test func beforeVersion166BothSidesWereRenamedPath1AndPath2() {
      #expect(
        Copy("datafile.dat..path1", copyOf: "datafile.dat")
          == Copy(engine: .rcloneBisync, counter: 1))
      #expect(Copy("datafile.dat..path2", copyOf: "datafile.dat")?.counter == 2)
      #expect(Copy("note..path1", copyOf: "note")?.engine == .rcloneBisync)
      #expect(Copy(".note.txt..path2", copyOf: ".note.txt")?.counter == 2)
    }

    @Test func suffixesBisyncDoesNotWriteByDefaultAreNoCopy() {
      for name in [
        "file.txt.conflict", "file.txt.conflict0", "file.txt.conflict01", "file.txt..path3",
        "file.txt.path1", "file.txt..path12",
        // --suffix-keep-extension puts it before the extension: not the default.
        "file.conflict1.txt",
      ] {
        #expect(Copy(name, copyOf: "file.txt") == nil, "\(name)")
      }
    }
  }

  @Test func theNoteItselfAndNamesThatAddNothingAreNoCopies() {
    #expect(Copy("datafile.dat", copyOf: "datafile.dat") == nil)
    #expect(Copy("datafile", copyOf: "datafile.dat") == nil)
    #expect(Copy(".datafile.dat.versions", copyOf: "datafile.dat") == nil)
    #expect(Copy(".datafile.dat.lock", copyOf: "datafile.dat") == nil)
    #expect(Copy(".datafile.dat.4242.17.tmp", copyOf: "datafile.dat") == nil)
    #expect(Copy("x", copyOf: "") == nil)
  }

  @Test func aCopyNoLongerNoteExplainsStaysThisNotes() {
    let name = "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat"
    #expect(
      !Copy.belongsToLongerNote(
        name, copyOf: "datafile.dat",
        among: ["datafile.dat", name, "datafile2.dat", "datafile.dat.old"]))
  }
}
