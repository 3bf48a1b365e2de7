-- Schema v9: the text rules hold for every client (docs/schema.md "Text rules").
--
-- inspector refuses, in every text it is given, terminal control characters (C0 and C1
-- controls such as ESC, line breaks and tabs in names, DEL, and the bidirectional controls
-- U+202A-U+202E and U+2066-U+2069; free text may hold tab, line feed and carriage return), and
-- names, species and fruit names made only of white space or invisible characters. These
-- triggers refuse the same for writes from other clients (the sqlite3 shell, Python,
-- sqlite-utils), as far as SQL can see:
--
-- - Control characters: one GLOB per column against a character class of them. SQL reads text
--   only up to a NUL (NUL itself is allowed, as imports carry it), so a control character after
--   a NUL passes here; `inspector check` reports it.
-- - Invisible-only names: trim() with a set of white space and the common invisible characters
--   (zero-width space and joiners, word joiner and invisible operators, BOM, soft hyphen, the
--   Hangul fillers, Mongolian vowel separator, braille blank, variation selectors, combining
--   diacritical marks and those for symbols). Unicode has more (any default-ignorable code point, any
--   combining mark without a base); `inspector check` reports those by Unicode's properties.
--   Only a name whose first character is not printable ASCII can be invisible, so the trim()
--   runs only for those. This replaces the blank-name triggers of 0005 (white space is in the
--   set).
--
-- An UPDATE is refused only for a column it changes: rows stored before this migration keep
-- working (other columns can change, and `inspector check` lists them with the command that
-- fixes each). The migration itself reads no row, so it never fails on existing ones.

DROP TRIGGER animals_names_before_insert;
DROP TRIGGER animals_names_before_update;
DROP TRIGGER fruits_name_before_insert;
DROP TRIGGER fruits_name_before_update;

CREATE TRIGGER animals_names_before_insert BEFORE INSERT ON animals
WHEN NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
  OR NEW.species GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
  OR NEW.emoji GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
  OR ((unicode(NEW.name) <= 32 OR unicode(NEW.name) >= 127) AND trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = '')
  OR ((unicode(NEW.species) <= 32 OR unicode(NEW.species) >= 127) AND trim(NEW.species, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = '')
BEGIN
  SELECT RAISE(ABORT, 'a suspect''s name, species and emoji must not hold control characters (line breaks, tabs, escape sequences)')
  WHERE NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
    OR NEW.species GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
    OR NEW.emoji GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*';
  SELECT RAISE(ABORT, 'a suspect''s name and species must not be blank or only invisible characters');
END;

CREATE TRIGGER animals_names_before_update BEFORE UPDATE OF name, species, emoji ON animals
WHEN (NEW.name IS NOT OLD.name AND (NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
    OR ((unicode(NEW.name) <= 32 OR unicode(NEW.name) >= 127) AND trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = '')))
  OR (NEW.species IS NOT OLD.species AND (NEW.species GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
    OR ((unicode(NEW.species) <= 32 OR unicode(NEW.species) >= 127) AND trim(NEW.species, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = '')))
  OR (NEW.emoji IS NOT OLD.emoji AND NEW.emoji GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*')
BEGIN
  SELECT RAISE(ABORT, 'a suspect''s name, species and emoji must not hold control characters (line breaks, tabs, escape sequences)')
  WHERE (NEW.name IS NOT OLD.name AND NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*')
    OR (NEW.species IS NOT OLD.species AND NEW.species GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*')
    OR (NEW.emoji IS NOT OLD.emoji AND NEW.emoji GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*');
  SELECT RAISE(ABORT, 'a suspect''s name and species must not be blank or only invisible characters');
END;

CREATE TRIGGER fruits_name_before_insert BEFORE INSERT ON fruits
WHEN NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
  OR ((unicode(NEW.name) <= 32 OR unicode(NEW.name) >= 127) AND trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = '')
BEGIN
  SELECT RAISE(ABORT, 'a fruit''s name must not hold control characters (line breaks, tabs, escape sequences)')
  WHERE NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*';
  SELECT RAISE(ABORT, 'a fruit''s name must not be blank or only invisible characters');
END;

CREATE TRIGGER fruits_name_before_update BEFORE UPDATE OF name ON fruits
WHEN NEW.name IS NOT OLD.name AND (NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
  OR ((unicode(NEW.name) <= 32 OR unicode(NEW.name) >= 127) AND trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 173, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858) || char(859, 860, 861, 862, 863, 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 1564, 4447, 4448, 5760, 6068, 6069, 6155, 6156, 6157, 6158, 6159, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8206, 8207, 8232, 8233, 8239, 8287, 8288, 8289, 8290, 8291, 8292, 8293, 8294, 8295, 8296, 8297, 8298, 8299, 8300, 8301, 8302, 8303, 8400, 8401, 8402, 8403, 8404, 8405, 8406, 8407, 8408, 8409, 8410, 8411, 8412, 8413, 8414, 8415, 8416, 8417, 8418, 8419, 8420, 8421, 8422, 8423, 8424, 8425, 8426, 8427, 8428, 8429, 8430, 8431) || char(8432, 10240, 12288, 12644, 65024, 65025, 65026, 65027, 65028, 65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279, 65440, 119155, 119156, 119157, 119158, 119159, 119160, 119161, 119162, 917505)) = ''))
BEGIN
  SELECT RAISE(ABORT, 'a fruit''s name must not hold control characters (line breaks, tabs, escape sequences)')
  WHERE NEW.name GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*';
  SELECT RAISE(ABORT, 'a fruit''s name must not be blank or only invisible characters');
END;

CREATE TRIGGER alibis_text_before_insert BEFORE INSERT ON alibis
WHEN NEW.statement GLOB '*[' || char(1) || '-' || char(8) || char(11) || char(12) || char(14) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
BEGIN
  SELECT RAISE(ABORT, 'an alibi must not hold terminal control characters (tabs and line breaks are fine)');
END;

CREATE TRIGGER alibis_text_before_update BEFORE UPDATE OF statement ON alibis
WHEN NEW.statement IS NOT OLD.statement AND NEW.statement GLOB '*[' || char(1) || '-' || char(8) || char(11) || char(12) || char(14) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
BEGIN
  SELECT RAISE(ABORT, 'an alibi must not hold terminal control characters (tabs and line breaks are fine)');
END;

CREATE TRIGGER incidents_text_before_insert BEFORE INSERT ON incidents
WHEN NEW.notes GLOB '*[' || char(1) || '-' || char(8) || char(11) || char(12) || char(14) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
BEGIN
  SELECT RAISE(ABORT, 'an incident''s notes must not hold terminal control characters (tabs and line breaks are fine)');
END;

CREATE TRIGGER incidents_text_before_update BEFORE UPDATE OF notes ON incidents
WHEN NEW.notes IS NOT OLD.notes AND NEW.notes GLOB '*[' || char(1) || '-' || char(8) || char(11) || char(12) || char(14) || '-' || char(31) || char(127) || '-' || char(159) || char(8234) || '-' || char(8238) || char(8294) || '-' || char(8297) || ']*'
BEGIN
  SELECT RAISE(ABORT, 'an incident''s notes must not hold terminal control characters (tabs and line breaks are fine)');
END;
